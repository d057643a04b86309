// First: modules loaded from here on are compiled from the on-disk cache when it holds them.
import './compile-cache';
// Then tracing, when configured, must start before the modules it instruments are loaded.
import './tracing';
import { start } from './bootstrap';

start();
