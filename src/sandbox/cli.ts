/**
 * `npm run sandbox`: the sandbox ERP on its own, configured by SANDBOX_* variables (see
 * env.ts). Prints where it listens, the credentials and things to try; stops on SIGINT/SIGTERM.
 */
import { createLogger } from '../log/logger.js';
import { sandboxOptionsFromEnv } from './env.js';
import { type RunningSandbox, startSandbox } from './server.js';

function describe(sandbox: RunningSandbox): string {
  const { credentials } = sandbox;
  const examples = sandbox.examples();
  const basic = Buffer.from(`${credentials.companyCode}:${credentials.accessToken}`).toString(
    'base64',
  );
  const list = (values: string[]) => values.map((value) => `    ${value}`).join('\n');
  return [
    `Sandbox ERP listening on ${sandbox.url} (seed ${sandbox.data.seed}, ${sandbox.data.items.length} items, ${sandbox.data.contacts.length} contacts)`,
    '',
    'Credentials (these are the sandbox defaults, not secrets):',
    `  ERP_BASE_URL=${sandbox.url}`,
    `  ERP_COMPANY_CODE=${credentials.companyCode}`,
    `  ERP_ACCESS_TOKEN=${credentials.accessToken}`,
    `  ERP_TENANT_ID=${credentials.tenantId}`,
    '',
    'Item codes:',
    list(examples.itemCodes),
    'Items with a BOM:',
    list(examples.bomItemCodes),
    'Item searches:',
    list(examples.itemSearches),
    'Contact codes:',
    list(examples.contactCodes),
    'Contact searches:',
    list(examples.contactSearches),
    'Categories, for /stock … category:N:',
    `    ${sandbox.data.categories.map(({ id, name }) => `${id} ${name}`).join(', ')}`,
    '',
    'Try:',
    `  curl -H 'Authorization: Basic ${basic}' -H 'Tenantid: ${credentials.tenantId}' '${sandbox.url}/api/getItem/WIDGET-9'`,
    `  curl -H 'Authorization: Basic ${basic}' -H 'Tenantid: ${credentials.tenantId}' '${sandbox.url}/api/searchItems?q=blue+widget&limit=5&offset=0'`,
    '',
    'Ctrl-C stops it.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info', name: 'sandbox' });
  const sandbox = await startSandbox({ ...sandboxOptionsFromEnv(), logger });
  process.stdout.write(describe(sandbox));
  const stop = (signal: string) => {
    logger.info({ signal }, 'sandbox stopping');
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'sandbox did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
