/** The API base address, replaced at build time by rspack's DefinePlugin (undefined under tests). */
declare const __BALCAO_API_BASE__: string | undefined;
