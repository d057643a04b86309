import { routeBullMqConsole } from './bullmq-console.bridge';

describe('routeBullMqConsole', () => {
  it("passes any call not made by BullMQ's code to the console, and restores it when released", () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const release = routeBullMqConsole();
    const again = routeBullMqConsole();
    expect(console.warn).not.toBe(warn);
    console.warn('not BullMQ', 1);
    expect(warn).toHaveBeenCalledWith('not BullMQ', 1);
    release();
    release(); // twice is once
    expect(console.warn).not.toBe(warn);
    again();
    expect(console.warn).toBe(warn);
    warn.mockRestore();
  });
});
