/**
 * The generated reference pages of {@code docs/reference}: every command and option of the {@code sluice}
 * command line from its picocli definitions ({@link io.sluice.perf.reference.CommandReference}), and every
 * {@code sluice.*} system property from the property enums of the modules that read them
 * ({@link io.sluice.perf.reference.PropertyReference}). {@code sluice reference} writes them; a test fails
 * while the committed pages differ from what the code generates.
 *
 * <p>May depend on every Sluice module and on picocli; it is handed the command line rather than
 * depending on {@code io.sluice.perf.cli}, which depends on it.
 */
package io.sluice.perf.reference;
