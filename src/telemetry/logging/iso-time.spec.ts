import pino from 'pino';
import { isoTime, isoTimeAt } from './iso-time';

describe('isoTimeAt', () => {
  it('writes what toISOString writes, within a second, across seconds and days, and back', () => {
    const start = Date.UTC(2026, 10, 25, 23, 59, 58, 990);
    const times = [
      ...Array.from({ length: 2100 }, (_, i) => start + i),
      Date.UTC(1999, 0, 1, 0, 0, 0, 5),
      start,
      0,
    ];
    for (const t of times) {
      expect([t, isoTimeAt(t)]).toEqual([t, `,"time":"${new Date(t).toISOString()}"`]);
    }
  });

  it('has the shape of pino’s own isoTime', () => {
    const shape = /^,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/;
    expect(pino.stdTimeFunctions.isoTime()).toMatch(shape);
    expect(isoTime()).toMatch(shape);
  });
});
