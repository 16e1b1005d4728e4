package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.like;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.sub;
import static io.sluice.engine.expr.Expr.year;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.plan.Plan;
import java.util.List;

/** TPC-H Q9, product type profit measure (COLOR green): six tables, a two-column join key, EXTRACT(year). */
public final class Q09 implements Query {
    static final String SQL = TpchSql.text(9);

    @Override
    public String name() {
        return "q9";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("part", "supplier", "lineitem", "partsupp", "orders", "nation");
    }

    @Override
    public Plan plan() {
        final Plan green = Plan.scan("part", "p_partkey", "p_name").filter(like(col("p_name"), "%green%"));
        final Plan suppliers = Plan.scan("supplier", "s_suppkey", "s_nationkey")
                .join(JoinType.INNER, Plan.scan("nation", "n_nationkey", "n_name"),
                        List.of("s_nationkey"), List.of("n_nationkey"));
        return Plan.scan("lineitem", "l_orderkey", "l_partkey", "l_suppkey", "l_quantity", "l_extendedprice",
                        "l_discount")
                .join(JoinType.SEMI, green, List.of("l_partkey"), List.of("p_partkey"))
                .join(JoinType.INNER, Plan.scan("partsupp", "ps_partkey", "ps_suppkey", "ps_supplycost"),
                        List.of("l_partkey", "l_suppkey"), List.of("ps_partkey", "ps_suppkey"))
                .join(JoinType.INNER, suppliers, List.of("l_suppkey"), List.of("s_suppkey"))
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey", "o_orderdate"),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .project(new NamedExpr("nation", col("n_name")),
                        new NamedExpr("o_year", year(col("o_orderdate"))),
                        new NamedExpr("amount", sub(mul(col("l_extendedprice"), sub(lit(1), col("l_discount"))),
                                mul(col("ps_supplycost"), col("l_quantity")))))
                .aggregate(Plan.groupBy("nation", "o_year"), Plan.sum(col("amount"), "sum_profit"))
                .orderBy(SortKey.asc("nation"), SortKey.desc("o_year"));
    }
}
