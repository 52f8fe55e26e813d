import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSmoke } from '../../scripts/smoke';
import { CODE_MAIL, codeMail } from '../../shared/code-mail';
import { startTestStack, type TestStack } from '../support/local-stack';

/** The deploy proof (npm run smoke) against local mode, as CI runs it against `npm start`. */
describe('smoke test (scripts/smoke.ts) against local mode', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ mailCodes: true });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('signs up a new user with the mailed code, uploads, reaches To Review or Ready, lists, edits, exports CSV and deletes', async () => {
    // Prepare
    const lines: string[] = [];
    const email = `smoke-it-${Date.now().toString(36)}@example.com`;
    // Act: --email/--password of a user that does not exist yet: sign-in fails, the user is signed up
    const steps = await runSmoke({ baseUrl: t.stack.url, email, password: 'Smoke-Passw0rd', timeoutMs: 240_000, print: (l) => lines.push(l) });
    // Assess
    expect(steps.map((s) => s.name)).toEqual(['config', 'account', 'company', 'upload', 'recognised', 'list', 'edit', 'export csv', 'delete']);
    expect(steps.every((s) => s.ms >= 0)).toBe(true);
    expect(steps[1]!.detail).toBe(`signed up and confirmed ${email}`);
    expect(lines.at(-1)).toMatch(/^Smoke test passed: 9 steps in [\d.]+ s$/);
    // The confirmation code went through the local mail catcher, as Cognito e-mails it.
    const mail = t.stack.mail.messages().find((m) => m.to.includes(email));
    expect(mail).toMatchObject({ subject: CODE_MAIL.subject });
    expect(mail!.text.trim()).toBe(codeMail(mail!.text.match(/\b\d{6}\b/)![0]).text);
  }, 300_000);

  it('fails with the step that failed when the site serves no config.json', async () => {
    const lines: string[] = [];
    await expect(runSmoke({ baseUrl: `${t.stack.url}/nothing-here`, timeoutMs: 1000, print: (l) => lines.push(l) })).rejects.toThrow(/config\.json/);
    expect(lines.at(-1)).toMatch(/^ {2}✗ config/);
  });
});
