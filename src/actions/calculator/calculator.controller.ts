import { ActionController, ActionParams, type ActionResult, RunAction } from '../../kit';
import { calculatorAction, CalculatorParams } from './calculator.action';
import { type Calculation, CalculatorService } from './calculator.service';

@ActionController(calculatorAction)
export class CalculatorController {
  constructor(private readonly calculator: CalculatorService) {}

  @RunAction()
  run(@ActionParams() params: CalculatorParams): ActionResult<Calculation> {
    return this.calculator.calculate(params);
  }
}
