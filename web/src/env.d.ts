/// <reference types="vite/client" />

/** Injected at build time by vite.config.ts (`define`). */
declare const __APP_VERSION__: string;
declare const __APP_REVISION__: string;
declare const __APP_BUILD_TIME__: string;
declare const __APP_ENVIRONMENT__: string;
