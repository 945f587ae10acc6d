#!/usr/bin/env node
// Thin launcher: everything lives in the built code. Kept tiny so `--version`
// and `--help` cost little more than starting node.
import '../dist/cli/main.js';
