/**
 * `/stock watch … notify …` and `/stock digest …` as Slack sends them with `should_escape`
 * on: mentions arrive as entities (`<@U…|name>`, `<!subteam^S…|@handle>`, `<!here>`), and
 * `&`, `<`, `>` typed by the user as `&amp;`, `&lt;`, `&gt;`.
 */
import { describe, expect, it } from 'vitest';
import { parseStockCommand } from '../../src/slack/parser.js';

function request(text: string) {
  const parsed = parseStockCommand(text);
  if (!parsed.ok) throw new Error(`not read: ${JSON.stringify(parsed.error)}`);
  return parsed.request;
}

function problem(text: string) {
  const parsed = parseStockCommand(text);
  if (parsed.ok) throw new Error(`read: ${JSON.stringify(parsed.request)}`);
  return parsed.error;
}

describe('notify on /stock watch', () => {
  it('takes people and groups from the escaped entities only, as bare ids', () => {
    expect(
      request(
        'watch WIDGET-9 below 20 at perth notify <@U0PURCH01|jo> <!subteam^S0GROUP01|@purchasing> <@U0PURCH01>',
      ),
    ).toEqual({
      kind: 'watch',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
      branchWords: ['perth'],
      notify: ['<@U0PURCH01>', '<!subteam^S0GROUP01>'],
    });
    expect(request('watch WIDGET-9 above 0 NOTIFY <@W0ENTERP1>')).toMatchObject({
      notify: ['<@W0ENTERP1>'],
    });
  });

  it('never makes a mention of @channel, @here, @everyone or free text', () => {
    for (const broadcast of ['<!channel>', '<!here>', '<!everyone>', '<!here|here>']) {
      expect(problem(`watch WIDGET-9 below 20 notify <@U0PURCH01> ${broadcast}`)).toMatchObject({
        kind: 'notify_refused',
        problem: 'broadcast',
      });
    }
    for (const free of [
      '@purchasing',
      'jo',
      '<#C0SALES|sales>',
      '<https://x.example|x>',
      '&lt;@U0PURCH01&gt;',
    ]) {
      expect(problem(`watch WIDGET-9 below 20 notify ${free}`)).toMatchObject({
        kind: 'notify_refused',
        problem: 'not_mention',
      });
    }
    expect(problem('watch WIDGET-9 below 20 notify')).toMatchObject({ problem: 'empty' });
    const many = Array.from({ length: 11 }, (_, i) => `<@U0PERSON${i}>`).join(' ');
    expect(problem(`watch WIDGET-9 below 20 notify ${many}`)).toMatchObject({
      problem: 'too_many',
    });
  });

  it('escaped text still reads as before: mentions dropped, entities decoded in codes', () => {
    expect(request('watch A&amp;B&lt;1&gt; below 5')).toMatchObject({
      kind: 'watch',
      code: 'A&B<1>',
    });
    expect(request('<@U0SOMEONE|bob> WIDGET-9')).toMatchObject({ kind: 'item', token: 'WIDGET-9' });
    expect(request('WIDGET-9 <#C0SALES|sales>')).toMatchObject({ kind: 'item', token: 'WIDGET-9' });
    // Without a watch, "notify" is only a word of a search.
    expect(request('notify me')).toMatchObject({ kind: 'search' });
  });
});

describe('/stock digest', () => {
  it('reads on with a time and a zone, off, and the setting', () => {
    expect(request('digest on')).toEqual({
      kind: 'digest',
      action: 'on',
      minuteOfDay: 480,
      zone: 'UTC',
      demand: false,
    });
    expect(request('digest on 7:30')).toMatchObject({ minuteOfDay: 450, zone: 'UTC' });
    expect(request('Digest ON 08:00 australia/perth')).toMatchObject({
      minuteOfDay: 480,
      zone: 'Australia/Perth',
    });
    expect(request('digest off')).toEqual({ kind: 'digest', action: 'off' });
    // `demand` last adds the unmet demand, with or without a time and a zone.
    expect(request('digest on 08:00 demand')).toMatchObject({ minuteOfDay: 480, demand: true });
    expect(request('digest on 08:00 Australia/Perth Demand')).toMatchObject({
      zone: 'Australia/Perth',
      demand: true,
    });
    expect(request('digest on demand')).toMatchObject({ minuteOfDay: 480, demand: true });
    expect(request('digest on 08:00 Australia/Perth')).toMatchObject({ demand: false });
    expect(request('digest')).toEqual({ kind: 'digest', action: 'status' });
  });

  it('says what is wrong with a time, a zone, or the words', () => {
    expect(problem('digest on 25:00')).toMatchObject({ kind: 'digest_usage', problem: 'time' });
    expect(problem('digest on 08:00 Mars/Base')).toMatchObject({ problem: 'zone' });
    expect(problem('digest sometimes')).toMatchObject({ problem: 'usage' });
    expect(problem('digest on 08:00 UTC please')).toMatchObject({ problem: 'usage' });
    expect(problem('digest off demand')).toMatchObject({ problem: 'usage' });
  });
});
