// The output formats, one entry each: a new format is its own file exporting a ViewFactory plus one line here.
import { jsonView } from './json.ts';
import { markdownView } from './markdown.ts';
import { textView } from './text.ts';
import type { ViewFactory } from './view.ts';

export const VIEWS = {
  text: textView,
  json: jsonView,
  markdown: markdownView,
} as const satisfies Record<string, ViewFactory>;

export type Format = keyof typeof VIEWS;

/** The --format choices, in the order of the help. */
export const FORMATS = Object.keys(VIEWS) as Format[];
