import { ActionParam, defineAction } from '../../kit';
import { TOOLS_MINI_APP } from '../mini-apps';

export const OPERATIONS = ['add', 'subtract', 'multiply', 'divide'] as const;
export type Operation = (typeof OPERATIONS)[number];

export class CalculatorParams {
  @ActionParam({
    type: 'select',
    label: 'Operation',
    required: true,
    options: [
      { label: 'Add', value: 'add' },
      { label: 'Subtract', value: 'subtract' },
      { label: 'Multiply', value: 'multiply' },
      { label: 'Divide', value: 'divide' },
    ],
  })
  operation!: Operation;

  @ActionParam({ type: 'number', label: 'First number', required: true, placeholder: '10' })
  a!: number;

  @ActionParam({ type: 'number', label: 'Second number', required: true, placeholder: '5' })
  b!: number;
}

export const calculatorAction = defineAction({
  label: 'Calculate',
  description: 'Add, subtract, multiply or divide two numbers on the server',
  docs: [
    'The contract’s worked example. `a` and `b` are read as decimal numbers;',
    '`data` holds `operation`, `a`, `b` and `result`, and `message` the computation (`2 + 3 = 5`).',
    '',
    '**Errors**: a missing or invalid parameter is a 400 naming it; dividing by zero is a 400',
    '`Division by zero is not allowed`.',
  ].join('\n'),
  chains: { source: 43113 },
  path: '/api/calculator',
  miniApp: TOOLS_MINI_APP,
  params: CalculatorParams,
  responseType: 'data',
  dataSchema: {
    type: 'object',
    properties: {
      operation: { enum: [...OPERATIONS] },
      a: { type: 'number' },
      b: { type: 'number' },
      result: { type: 'number' },
    },
    required: ['operation', 'a', 'b', 'result'],
    additionalProperties: false,
  },
  samples: [{ params: { operation: 'add', a: 2, b: 3 } }],
});
