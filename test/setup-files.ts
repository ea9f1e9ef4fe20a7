// Run before every test file (vitest's setupFiles), in the file's own scope: what helpers made for it goes with it.
import { afterAll } from 'vitest';
import { removeFileTempDirs } from './helpers/temp-dirs.ts';

afterAll(removeFileTempDirs);
