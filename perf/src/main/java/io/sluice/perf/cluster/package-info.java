/**
 * A cluster on this host: {@link io.sluice.perf.cluster.LocalCluster} runs a coordinator in this
 * process and CN processes beside it ({@code sluice cluster up}, {@code sluice bench --cluster
 * processes}); {@link io.sluice.perf.cluster.JavaCommand} is the command line of such a process.
 *
 * <p>Depends on the cluster runtime ({@code io.sluice.dispatch.cluster}) and the command line's
 * entry point.
 */
package io.sluice.perf.cluster;
