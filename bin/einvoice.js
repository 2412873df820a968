#!/usr/bin/env node
// The operator's command-line tool (`npx einvoice ...`); the code is compiled from cli/ into dist/.
import '../dist/cli/einvoice.js';
