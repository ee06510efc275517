#!/usr/bin/env node
'use strict';
require('../dist/src/cli/main.js').main(process.argv.slice(2));
