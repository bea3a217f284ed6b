/**
 * The real react-router package under another name (an rspack alias), so that the host's shared
 * `react-router` module can re-export from it without consuming itself.
 */
declare module '@balcao/react-router-impl' {
  export * from 'react-router';
}
