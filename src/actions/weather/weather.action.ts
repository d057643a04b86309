import { ActionParam, defineAction } from '../../kit';
import { TOOLS_MINI_APP } from '../mini-apps';

export class WeatherParams {
  @ActionParam({
    type: 'string',
    label: 'City',
    required: true,
    placeholder: 'London',
    description: 'Name of the city to look up',
    maxLength: 100,
  })
  city!: string;
}

export const weatherAction = defineAction({
  label: 'Check weather',
  description: 'Current temperature, wind and conditions in a city',
  chains: { source: 43113 },
  path: '/api/weather',
  callsOutside: true,
  miniApp: TOOLS_MINI_APP,
  params: WeatherParams,
  responseType: 'data',
  samples: [{ params: { city: 'Paris' } }],
});
