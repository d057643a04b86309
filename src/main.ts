// First: tracing, when configured, must start before the modules it instruments are loaded.
import './tracing';
import { start } from './bootstrap';

start();
