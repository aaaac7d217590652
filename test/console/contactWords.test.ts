/**
 * Contacts as people ask for them, at the console on the built-in sandbox: a role by its
 * everyday word (a buyer is the Purchasing Officer), a name with a straight apostrophe for a
 * record spelt with a curly one, and what the ERP cannot search said plainly.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

const once = (line: string) => session([], { once: line });

describe('contacts by role words, names and what cannot be searched', () => {
  it('finds the Purchasing Officer for "buyer" and Accounts Payable for "AP"', async () => {
    expect((await once('/contact ACME01 buyer')).text).toContain('Purchasing Officer');
    expect((await once('/contact ACME01 AP')).text).toContain('Accounts Payable');
  });

  it('says so when nobody at the account has the role', async () => {
    expect((await once('/contact ACME01 astronaut')).text).toMatch(/None of \d+ people match/);
  });

  it("finds O’Connor for o'connor", async () => {
    const { text } = await once("/contact o'connor");
    expect(text).toContain('ACME01');
    expect(text).not.toContain('Nothing found');
  });

  it('says the ERP cannot search phone numbers or e-mail addresses', async () => {
    expect((await once('/contact 0412 345 678')).text).toContain(
      'The ERP cannot search contacts by phone numbers',
    );
    expect((await once('/contact jane@acme.com.au')).text).toContain('by e-mail addresses');
  });
});
