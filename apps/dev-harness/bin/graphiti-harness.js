#!/usr/bin/env node
// A checked-in launcher, so the package manager can link the bin before the first build.
import "../dist/bin.js";
