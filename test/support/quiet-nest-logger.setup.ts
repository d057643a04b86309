/**
 * Jest `setupFiles` of both projects: Nest's default console logger off. Specs that build a
 * service by hand (no app, so no pino logger installed) would otherwise print its lines,
 * coloured, among the results. A spec that reads what is logged spies on `Logger.prototype` or
 * installs a recorder (`app.useLogger`), which replaces this; an app's own logs go to pino.
 */
import { Logger } from '@nestjs/common';

Logger.overrideLogger(false);
