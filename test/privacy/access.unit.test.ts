import { describe, expect, it } from 'vitest';
import { checkAccess } from '../../src/privacy/access.js';

const open = { channels: [], users: [] };
const channelsOnly = { channels: ['CSALES', 'GPRIVATE'], users: [] };
const usersOnly = { channels: [], users: ['UALICE'] };
const both = { channels: ['CSALES'], users: ['UALICE'] };

describe('checkAccess', () => {
  it('empty lists allow every user everywhere, even without a channel', () => {
    expect(checkAccess(open, { userId: 'UANY', channelId: 'CANY' }, '/stock')).toEqual({
      allowed: true,
    });
    expect(checkAccess(open, { userId: 'UANY', channelId: undefined }, '/contact')).toEqual({
      allowed: true,
    });
  });

  it('a channel list allows only those channels', () => {
    expect(
      checkAccess(channelsOnly, { userId: 'UANY', channelId: 'GPRIVATE' }, '/contact'),
    ).toEqual({ allowed: true });
    expect(checkAccess(channelsOnly, { userId: 'UANY', channelId: 'CRANDOM' }, '/contact')).toEqual(
      {
        allowed: false,
        reason: 'channel_not_allowed',
        message: '/contact is not enabled in this channel; ask an admin.',
      },
    );
    expect(checkAccess(channelsOnly, { userId: 'UANY', channelId: undefined }, '/stock')).toEqual({
      allowed: false,
      reason: 'channel_not_allowed',
      message: '/stock is not enabled in this channel; ask an admin.',
    });
  });

  it('a user list allows only those users, in any channel', () => {
    expect(checkAccess(usersOnly, { userId: 'UALICE', channelId: 'CANY' }, '/stock')).toEqual({
      allowed: true,
    });
    expect(checkAccess(usersOnly, { userId: 'UBOB', channelId: 'CANY' }, '/stock')).toEqual({
      allowed: false,
      reason: 'user_not_allowed',
      message: '/stock is not enabled for your account; ask an admin.',
    });
  });

  it('both lists must match; a user not listed hears about the account first', () => {
    expect(checkAccess(both, { userId: 'UALICE', channelId: 'CSALES' }, '/contact')).toEqual({
      allowed: true,
    });
    expect(checkAccess(both, { userId: 'UALICE', channelId: 'CRANDOM' }, '/contact')).toMatchObject(
      {
        allowed: false,
        message: expect.stringContaining('in this channel'),
      },
    );
    expect(checkAccess(both, { userId: 'UBOB', channelId: 'CSALES' }, '/contact')).toMatchObject({
      allowed: false,
      message: expect.stringContaining('for your account'),
    });
    expect(checkAccess(both, { userId: 'UBOB', channelId: 'CRANDOM' }, '/contact')).toMatchObject({
      allowed: false,
      message: expect.stringContaining('for your account'),
    });
  });

  it('compares ids exactly (no prefix or case tricks)', () => {
    expect(checkAccess(usersOnly, { userId: 'ualice', channelId: 'C1' }, '/stock').allowed).toBe(
      false,
    );
    expect(checkAccess(usersOnly, { userId: 'UALICE2', channelId: 'C1' }, '/stock').allowed).toBe(
      false,
    );
  });
});
