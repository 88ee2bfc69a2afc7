import { describe, expect, it } from 'vitest';
import { actionBody, logHeadline, myHeadline, parseDays, reportContext, standingLines } from '../src/moderation/words';

const date = (ms: number) => `t${ms}`;
const target = { user: 'bob', chat: 7, game: 3, report: 11 };

describe('moderation actions', () => {
  it('sends what each action needs, with the report it closes', () => {
    expect(actionBody('mute', target, { reason: ' rude ', days: 3 })).toEqual({ action: 'mute', user: 'bob', reason: 'rude', days: 3, report: 11 });
    expect(actionBody('delete_chat', target, { reason: 'slur' })).toEqual({ action: 'delete_chat', user: 'bob', reason: 'slur', chat: 7, report: 11 });
    expect(actionBody('void_rating', { ...target, report: null }, { reason: 'engine' })).toEqual({ action: 'void_rating', user: 'bob', reason: 'engine', game: 3 });
    expect(actionBody('rename', target, { reason: 'offensive', name: ' newname ' })).toMatchObject({ name: 'newname' });
  });

  it('says what is missing instead of sending', () => {
    expect(actionBody('warn', target, { reason: '   ' })).toMatch(/reason/);
    expect(actionBody('suspend', target, { reason: 'x' })).toMatch(/days/);
    expect(actionBody('rename', target, { reason: 'x', name: '' })).toMatch(/name/);
    expect(actionBody('delete_chat', { ...target, chat: null }, { reason: 'x' })).toMatch(/chat line/);
    expect(actionBody('ban', { ...target, user: null }, { reason: 'x' })).toMatch(/no player/);
  });

  it('reads days as whole numbers within ten years', () => {
    expect(parseDays(' 7 ')).toBe(7);
    expect(parseDays('0')).toBeNull();
    expect(parseDays('1.5')).toBeNull();
    expect(parseDays('')).toBeNull();
    expect(parseDays('4000')).toBeNull();
  });
});

describe('standing', () => {
  const none = { role: 'player', muted_until_ms: null, suspended_until_ms: null, banned: false, reason: null };

  it('says nothing in good standing or once a mute has run out', () => {
    expect(standingLines(none, 1000)).toEqual([]);
    expect(standingLines({ ...none, muted_until_ms: 900, reason: 'x' }, 1000)).toEqual([]);
    expect(standingLines(undefined, 1000)).toEqual([]);
  });

  it('puts the most serious first, each with its end', () => {
    const lines = standingLines({ role: 'player', muted_until_ms: 5000, suspended_until_ms: 4000, banned: true, reason: 'spam' }, 1000, date);
    expect(lines.map((l) => l.kind)).toEqual(['banned', 'suspended', 'muted']);
    expect(lines[1].text).toBe('Suspended until t4000: you cannot play.');
    expect(lines[2].text).toBe('Muted until t5000: you cannot chat.');
  });
});

describe('words', () => {
  it('words log lines for moderators and for the player', () => {
    expect(logHeadline({ moderator: 'ada', user: 'bob', action: 'mute', until_ms: 9 }, date)).toBe('ada muted bob until t9');
    expect(logHeadline({ moderator: 'ada', user: 'bob', action: 'grant', until_ms: null }, date)).toBe('ada granted a role to bob');
    expect(logHeadline({ moderator: 'ada', user: null, action: 'new_thing', until_ms: null }, date)).toBe('ada new thing');
    expect(logHeadline({ moderator: 'ada', user: 'bob', action: 'delete_chat', until_ms: null }, date)).toBe('ada deleted a chat line of bob');
    expect(logHeadline({ moderator: null, user: null, action: 'void_rating', until_ms: null }, date)).toBe('A moderator voided the rating of a game');
    expect(logHeadline({ moderator: 'ada', user: null, action: 'close_report', until_ms: null }, date)).toBe('ada closed a report');
    expect(myHeadline({ action: 'suspend', until_ms: 9 }, date)).toBe('Suspended until t9');
    expect(myHeadline({ action: 'delete_chat', until_ms: null }, date)).toBe('A chat line of yours was deleted');
  });
});

describe('report context', () => {
  const line = (id: number, at: number) => ({ id, from: 'x', text: `l${id}`, at_ms: at, deleted: false });

  it('marks the reported line among the lines around it, in time order', () => {
    const out = reportContext([line(3, 30), line(1, 10), line(2, 20)], line(2, 20));
    expect(out.map((l) => [l.id, l.reported])).toEqual([[1, false], [2, true], [3, false]]);
  });

  it('adds the reported line when the context leaves it out', () => {
    const out = reportContext([line(1, 10)], line(5, 50));
    expect(out.map((l) => [l.id, l.reported])).toEqual([[1, false], [5, true]]);
  });

  it('marks nothing for a report of a game', () => {
    expect(reportContext([line(1, 10)], null).some((l) => l.reported)).toBe(false);
  });
});
