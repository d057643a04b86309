import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { loadWeatherConfig, WEATHER_CONFIG } from './weather.config';
import { ExternalHttpModule } from '../../kit';
import { WeatherController } from './weather.controller';
import { WeatherService } from './weather.service';

@Module({
  imports: [ExternalHttpModule],
  controllers: [WeatherController],
  providers: [
    { provide: WEATHER_CONFIG, useFactory: loadWeatherConfig, inject: [ENV] },
    WeatherService,
  ],
})
export class WeatherModule {}
