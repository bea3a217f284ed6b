/// <reference types="@rspack/core/module" />
