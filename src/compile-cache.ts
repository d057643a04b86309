/**
 * Imported first by main.ts: from here on, the V8 code of every module loaded is kept on disk
 * and read back at the next boot instead of compiled again (about 120 ms of a 700 ms boot,
 * docs/performance.md). The directory is NODE_COMPILE_CACHE's, else `<tmpdir>/node-compile-cache`;
 * the image fills its own at build time (Dockerfile). A directory that cannot be written leaves
 * the boot as it was; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node checks each entry against
 * the module's source and its own version, so a stale entry is compiled again, never run.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
