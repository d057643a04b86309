import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../kit';
import type { Operation } from './calculator.action';
import { CalculatorService } from './calculator.service';

describe('CalculatorService', () => {
  const calculator = new CalculatorService();
  const run = (operation: Operation, a: number, b: number) =>
    calculator.calculate({ operation, a, b });

  /** The ActionException a call throws. */
  function refusal(operation: Operation, a: number, b: number): ActionException {
    try {
      run(operation, a, b);
    } catch (thrown) {
      if (thrown instanceof ActionException) return thrown;
      throw thrown;
    }
    throw new Error('expected the calculation to be refused');
  }

  it.each<[Operation, number, number, number, string]>([
    ['add', 1.5, 2, 3.5, '1.5 + 2 = 3.5'],
    ['subtract', 10, 4.25, 5.75, '10 - 4.25 = 5.75'],
    ['multiply', -3, 2.5, -7.5, '-3 × 2.5 = -7.5'],
    ['divide', 7, 2, 3.5, '7 ÷ 2 = 3.5'],
    ['divide', 0, 5, 0, '0 ÷ 5 = 0'],
  ])('%s(%p, %p) = %p with a message showing the computation', (operation, a, b, result, text) => {
    expect(run(operation, a, b)).toEqual({
      data: { operation, a, b, result },
      message: text,
    });
  });

  it('refuses division by zero with a 400 naming b', () => {
    const error = refusal('divide', 1, 0);
    expect(error.getStatus()).toBe(HttpStatus.BAD_REQUEST);
    expect(error.error).toMatch(/division by zero/i);
    expect(error.details.data).toEqual({ invalidParams: ['b'] });
  });

  it('refuses a result too large to represent rather than answering Infinity', () => {
    const error = refusal('multiply', 1e308, 10);
    expect(error.getStatus()).toBe(HttpStatus.BAD_REQUEST);
    expect(error.details.data).toEqual({ invalidParams: ['a', 'b'] });
  });
});
