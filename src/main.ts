// First: modules loaded from here on are compiled from the on-disk cache when it holds them.
import './compile-cache';
// Then tracing, when configured, must start before the modules it instruments are loaded.
import './tracing';
import type * as Bootstrap from './bootstrap';
import { withoutHttpUndiciGetters } from './http-esm-view';

// The application (NestJS's ES modules among it) is loaded without Node's bundled undici.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { start } = withoutHttpUndiciGetters(() => require('./bootstrap') as typeof Bootstrap);
start();
