import { HttpStatus, Injectable } from '@nestjs/common';
import { ActionException, type ActionResult } from '../../kit';
import type { CalculatorParams, Operation } from './calculator.action';

export interface Calculation {
  operation: Operation;
  a: number;
  b: number;
  result: number;
}

const SYMBOLS: Record<Operation, string> = { add: '+', subtract: '-', multiply: '×', divide: '÷' };

@Injectable()
export class CalculatorService {
  calculate({ operation, a, b }: CalculatorParams): ActionResult<Calculation> {
    if (operation === 'divide' && b === 0) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'Division by zero is not allowed', {
        message: 'Cannot divide by zero',
        data: { invalidParams: ['b'] },
      });
    }
    const result = compute(operation, a, b);
    if (!Number.isFinite(result)) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'The result is too large to represent', {
        data: { invalidParams: ['a', 'b'] },
      });
    }
    return {
      data: { operation, a, b, result },
      message: `${a} ${SYMBOLS[operation]} ${b} = ${result}`,
    };
  }
}

function compute(operation: Operation, a: number, b: number): number {
  switch (operation) {
    case 'add':
      return a + b;
    case 'subtract':
      return a - b;
    case 'multiply':
      return a * b;
    case 'divide':
      return a / b;
  }
}
