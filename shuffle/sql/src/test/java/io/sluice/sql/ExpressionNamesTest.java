package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An unnamed result column is named as DuckDB 1.5 names it (each expected name is DuckDB's own). */
class ExpressionNamesTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "x+1|(x + 1)",
        "-x|-(x)",
        "x*2.50|(x * 2.50)",
        "SUM (y)|sum(y)",
        "count(*)|count_star()",
        "count(distinct z)|count(DISTINCT z)",
        "Sum(t.y)|sum(t.y)",
        "substring(z,1,2)|main.\"substring\"(z, 1, 2)",
        "substr(z,1,2)|substr(z, 1, 2)",
        "`case when x > 1 then 'a' else 'b' end`|`CASE  WHEN ((x > 1)) THEN ('a') ELSE 'b' END`",
        "case x when 1 then 2 end|CASE  WHEN ((x = 1)) THEN (2) ELSE NULL END",
        "coalesce(x, 0)|COALESCE(x, 0)",
        "cast(y as decimal(15,4))|CAST(y AS DECIMAL(15, 4))",
        "cast(x as int)|CAST(x AS INTEGER)",
        "cast(d as date)|CAST(d AS \"DATE\")",
        "cast(x as double)|CAST(x AS \"DOUBLE\")",
        "x is null|(x IS NULL)",
        "x > 1 and x < 3|((x > 1) AND (x < 3))",
        "x <> 1|(x != 1)",
        "sum(x)/sum(y)*100.0000|((sum(x) / sum(y)) * 100.0000)",
        "x/(x+1)|(x / (x + 1))",
        "sum(x) - -1|(sum(x) - -1)",
        "round(sat_sales1/sat_sales2, 2)|round((sat_sales1 / sat_sales2), 2)",
        "trim(z)|main.\"trim\"(z)",
        "year(d)|\"year\"(d)",
        "nullif(x, 0)|\"nullif\"(x, 0)",
        "`z || 'a'`|`(z || 'a')`",
    })
    void anUnnamedExpressionIsNamedAsDuckDbPrintsIt(final String expression, final String duckDbName) {
        assertThat(ExpressionNames.of(expression)).isEqualTo(duckDbName);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"extract(year from d)", "x between 1 and 2"})
    void anExpressionItCannotPrintKeepsItsText(final String expression) {
        assertThat(ExpressionNames.of(expression)).isEqualTo(expression);
    }
}
