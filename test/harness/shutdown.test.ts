import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./scripts/shutdown.ts', import.meta.url));

describe('shutting down apps and the fake', () => {
  it('leaves nothing open: the process exits by itself', async () => {
    // A leaked handle would keep the child alive (the Socket Mode client's close-handshake
    // timer alone is 30 s); the kill timeout turns that into a failure.
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', script],
          { timeout: 15_000, env: { ...process.env, LOG_LEVEL: 'silent' } },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error.code as number | null) ?? 1) : 0, stdout, stderr }),
        );
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ socketAck: { text: 'ack' }, httpStatus: 200 });
  });
});
