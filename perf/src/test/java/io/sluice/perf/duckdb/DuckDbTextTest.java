package io.sluice.perf.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The words DuckDB reserves that Spark's TPC-DS texts use as names are double-quoted for DuckDB, as backquoted
 * names are; literals, quoted names, comments and longer words that contain them are left as they are.
 */
class DuckDbTextTest {
    @Test
    void returnsAndAtAsNamesAreDoubleQuotedAndBackquotesBecomeDoubleQuotes() {
        assertThat(DuckDbText.of("select sum(x) AS returns, coalesce(returns, 0) Returns from (select 1 x) at,"
                + " store_returns, atom where at.x = 1 and `order count` > 0"))
                .isEqualTo("select sum(x) AS \"returns\", coalesce(\"returns\", 0) \"Returns\" from (select 1 x) \"at\","
                        + " store_returns, atom where \"at\".x = 1 and \"order count\" > 0");
    }

    @Test
    void literalsQuotedNamesAndCommentsAreLeftAsTheyAre() {
        final String sql = "select 'at returns', 'it''s at' as \"at\" -- returns at\n/* at */ from t";
        assertThat(DuckDbText.of(sql)).isEqualTo(sql);
    }

    @Test
    void duckDbRunsTheQuotedTextsThatItRefusesAsWritten() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             Statement s = duck.createStatement();
             ResultSet rs = s.executeQuery(DuckDbText.of(
                     "select returns, at.returns + 1 as r2 from (select 1 AS returns, 2 y) at"))) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getMetaData().getColumnName(1)).isEqualTo("returns");
            assertThat(rs.getLong(1)).isEqualTo(1);
            assertThat(rs.getLong(2)).isEqualTo(2);
        }
    }
}
