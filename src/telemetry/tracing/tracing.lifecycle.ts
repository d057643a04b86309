import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { flushTracing } from './tracing-state';

/** The spans still buffered are exported when the application closes (SIGTERM included). */
@Injectable()
export class TracingLifecycle implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await flushTracing();
  }
}
