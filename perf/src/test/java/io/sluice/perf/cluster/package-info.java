/**
 * Multi-host cluster tests on one machine: compute nodes in separate JVMs, each on its own network host.
 *
 * <ul>
 *   <li>{@link io.sluice.perf.cluster.NetworkNamespaces}: hosts as Linux network namespaces on one bridge, each with
 *       its own address in a private /24, removed on close, at JVM exit, or by the next run's sweep when the JVM was
 *       killed. Needs root; {@code NetworkNamespaces.assumeAvailable()} skips a test elsewhere, or fails it where
 *       {@code -Dsluice.test.netns.required=true} (CI) says it must run.</li>
 *   <li>{@link io.sluice.perf.cluster.JavaProcess}: a main class in a new JVM with this JVM's java, classpath and
 *       {@code sluice.jvm.flags}, in the root namespace or a host's, its output lines awaited with a deadline.</li>
 *   <li>Small main classes the tests run in those JVMs: {@link io.sluice.perf.cluster.UdpEchoMain},
 *       {@link io.sluice.perf.cluster.UdpEchoClientMain}, {@link io.sluice.perf.cluster.UnclosedNamespacesMain}.</li>
 * </ul>
 *
 * <p>Needs {@code ip} (iproute2); depends on nothing of Sluice yet.
 */
package io.sluice.perf.cluster;
