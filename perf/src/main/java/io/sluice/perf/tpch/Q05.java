package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.and;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.eq;
import static io.sluice.engine.expr.Expr.ge;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.lt;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.str;
import static io.sluice.engine.expr.Expr.sub;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Dates;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q5, local supplier volume (REGION ASIA, DATE 1994-01-01): a two-column join key. */
public final class Q05 implements Query {
    static final String SQL = TpchSql.text(5);

    @Override
    public String name() {
        return "q5";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("customer", "orders", "lineitem", "supplier", "nation", "region");
    }

    @Override
    public Plan plan() {
        final Plan asia = Plan.scan("nation", "n_nationkey", "n_name", "n_regionkey")
                .join(JoinType.SEMI, Plan.scan("region", "r_regionkey", "r_name").filter(eq(col("r_name"), str("ASIA"))),
                        List.of("n_regionkey"), List.of("r_regionkey"))
                .select("n_nationkey", "n_name");
        final Plan suppliers = Plan.scan("supplier", "s_suppkey", "s_nationkey")
                .join(JoinType.INNER, asia, List.of("s_nationkey"), List.of("n_nationkey"));
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate")
                .prune(Predicate.ge("o_orderdate", Query.day("1994-01-01")),
                        Predicate.lt("o_orderdate", Query.day("1995-01-01")))
                .filter(and(ge(col("o_orderdate"), date("1994-01-01")),
                        lt(col("o_orderdate"), Dates.plusYears("1994-01-01", 1))))
                .join(JoinType.INNER, Plan.scan("customer", "c_custkey", "c_nationkey"),
                        List.of("o_custkey"), List.of("c_custkey"))
                .select("o_orderkey", "c_nationkey");
        return Plan.scan("lineitem", "l_orderkey", "l_suppkey", "l_extendedprice", "l_discount")
                .join(JoinType.INNER, orders, List.of("l_orderkey"), List.of("o_orderkey"))
                .join(JoinType.INNER, suppliers, List.of("l_suppkey", "c_nationkey"), List.of("s_suppkey", "s_nationkey"))
                .aggregate(Plan.groupBy("n_name"),
                        Plan.sum(mul(col("l_extendedprice"), sub(lit(1), col("l_discount"))), "revenue"))
                .orderBy(SortKey.desc("revenue"));
    }
}
