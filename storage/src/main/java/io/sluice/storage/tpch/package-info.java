/**
 * TPC-H data: the eight tables' schemas and a loader that streams dbgen-exact rows from the
 * {@code io.trino.tpch} generator into block files. Part of storage; depends on nothing else of
 * Sluice.
 */
package io.sluice.storage.tpch;
