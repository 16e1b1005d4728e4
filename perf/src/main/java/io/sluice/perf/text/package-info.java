/**
 * Text the command line prints about counts: a number with its noun in the right number. Below
 * every other package of {@code perf} (the command line, the benchmarks, the local cluster use it);
 * depends on nothing of Sluice.
 */
package io.sluice.perf.text;
