// The entry `npm run edgeops` runs from the sources (through tsx). The built CLI starts at src/launch/launcher.ts.
import { main } from './cli/main.ts';

await main();
