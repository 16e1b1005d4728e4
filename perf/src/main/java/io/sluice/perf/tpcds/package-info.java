/**
 * TPC-DS: the 24 tables of its snowflake schema generated with dsdgen's rows ({@code io.trino.tpcds})
 * into a store. Depends on storage and the generator only.
 */
package io.sluice.perf.tpcds;
