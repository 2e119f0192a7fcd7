// js-yaml ships no types; the deploy test needs `load` alone.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
