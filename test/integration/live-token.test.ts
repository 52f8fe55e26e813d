/**
 * The live channel follows the access token (lambdas/ws/default.ts `token`, core/live/connections.ts): a connection's
 * subscriptions get events until the token it was given expires (and a grace), a fresher token of the same user moves
 * that end, another user's token is refused, and subscriptions that had ended answer `lapsed` so the screen connects
 * again. A user signed out everywhere gets no fresh token: an open tab stops receiving within the token's hour.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { queryAll } from '../../lambdas/adapters/ddb/table-ops';
import { TOKEN_GRACE_SECONDS } from '../../lambdas/core/live/connections';
import { openLiveChannel, registeredUser, signIn, startTestStack, subOf, type TestStack } from '../support/local-stack';

/** The exp claim of an access token (epoch seconds). */
const expOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;

/** The items of the user's connections (the SUBUSER items name them, A12), then each connection's items (A11). */
async function connectionItemsOf(userId: string) {
  const index = await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.connectionOfUserIndex(userId, '').gsi1pk } });
  const id = String(index[0]!.connection_id);
  return { id, items: await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.connectionItems(id).pk } }) };
}

describe('live channel: events while the access token is fresh', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack();
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('subscribes until the token expires; a fresher token moves the end, another user’s is refused', async () => {
    const u = await registeredUser(t.stack, 'tokenlive');
    const live = await openLiveChannel(t.stack.wsUrl, u.token, u.companyId);
    const { id, items } = await connectionItemsOf(subOf(u.token));
    const sub = items.find((i) => i.sk === `SUB#${u.companyId}`)!;
    const meta = items.find((i) => i.sk === 'META')!;
    expect(sub.ttl).toBe(expOf(u.token) + TOKEN_GRACE_SECONDS);
    expect(meta.subscribed_until).toBe(sub.ttl);
    expect(Number(meta.ttl)).toBeGreaterThan(Number(sub.ttl) - TOKEN_GRACE_SECONDS);

    // A token signed a moment later expires later: the subscriptions follow it
    await new Promise((r) => setTimeout(r, 1100));
    const fresher = await signIn(t.stack, u.user);
    expect(expOf(fresher)).toBeGreaterThan(expOf(u.token));
    live.send({ event: 'token', payload: { token: fresher } });
    expect((await live.waitFor('token')).payload).toEqual({ lapsed: false });
    const after = (await connectionItemsOf(subOf(u.token))).items;
    for (const sk of [`SUB#${u.companyId}`, 'SUBUSER']) expect(after.find((i) => i.sk === sk)!.ttl).toBe(expOf(fresher) + TOKEN_GRACE_SECONDS);
    expect(after.find((i) => i.sk === 'META')!.subscribed_until).toBe(expOf(fresher) + TOKEN_GRACE_SECONDS);

    // Someone else's token, or no valid token at all, moves nothing
    const other = await registeredUser(t.stack, 'tokenthief');
    live.send({ event: 'token', payload: { token: other.token } });
    expect((await live.waitFor('error')).payload).toEqual({ message: 'The token is of another user' });
    live.messages.length = 0;
    live.send({ event: 'token', payload: { token: 'not-a-token' } });
    expect((await live.waitFor('error')).payload).toEqual({ message: 'Not signed in' });
    expect((await connectionItemsOf(subOf(u.token))).items.find((i) => i.sk === 'META')!.subscribed_until).toBe(expOf(fresher) + TOKEN_GRACE_SECONDS);
    expect(id).toBeTruthy();
    live.close();
  });

  it('a connection whose token ran out gets no events; its next token is answered lapsed', async () => {
    const u = await registeredUser(t.stack, 'tokenlapse');
    const live = await openLiveChannel(t.stack.wsUrl, u.token, u.companyId);
    // Events come while the token is fresh
    expect((await u.api.put(`/company?company_id=${u.companyId}`, { name: 'Lapse One UAB', code: '600111' })).status).toBe(200);
    await live.waitFor('company');
    // The token's end and the grace pass (as after a sign-out everywhere: no fresher token comes)
    const { items } = await connectionItemsOf(subOf(u.token));
    const past = Math.floor(Date.now() / 1000) - 1;
    for (const item of items) {
      await ddb().send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: item.sk === 'META' ? 'SET subscribed_until = :past' : 'SET #ttl = :past',
          ...(item.sk === 'META' ? {} : { ExpressionAttributeNames: { '#ttl': 'ttl' } }),
          ExpressionAttributeValues: { ':past': past },
        }),
      );
    }
    live.messages.length = 0;
    expect((await u.api.put(`/company?company_id=${u.companyId}`, { name: 'Lapse Two UAB', code: '600111' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(live.messages.filter((m) => m.event === 'company')).toEqual([]);
    // A token sent now is too late: the screen is told to connect again (and read again what it shows)
    live.send({ event: 'token', payload: { token: await signIn(t.stack, u.user) } });
    expect((await live.waitFor('token')).payload).toEqual({ lapsed: true });
    live.close();
  });
});
