import { ActionController, ActionParams, type ActionResult, RunAction } from '../../kit';
import { weatherAction, WeatherParams } from './weather.action';
import { type Weather, WeatherService } from './weather.service';

@ActionController(weatherAction)
export class WeatherController {
  constructor(private readonly weather: WeatherService) {}

  @RunAction()
  run(@ActionParams() { city }: WeatherParams): Promise<ActionResult<Weather>> {
    return this.weather.lookup(city);
  }
}
