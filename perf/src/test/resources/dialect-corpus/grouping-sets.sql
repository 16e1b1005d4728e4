-- GROUP BY ROLLUP, CUBE and GROUPING SETS with GROUPING().
select n_regionkey, n_name, count(*) as n, sum(n_nationkey) as s from nation
group by rollup (n_regionkey, n_name) order by n_regionkey nulls last, n_name nulls last;
select l_returnflag, l_linestatus, sum(l_quantity) as q, avg(l_discount) as d, grouping(l_returnflag) as gf,
       grouping(l_returnflag, l_linestatus) as g
from lineitem group by cube (l_returnflag, l_linestatus) order by g, l_returnflag, l_linestatus;
select o_orderstatus, o_orderpriority, count(*) as n from orders
group by grouping sets ((o_orderstatus), (o_orderpriority), ()) order by 1, 2;
select c_mktsegment, c_nationkey, min(c_acctbal) as lo, max(c_acctbal) as hi,
       grouping(c_mktsegment) + grouping(c_nationkey) as lochierarchy
from customer where c_nationkey < 3 group by rollup (c_mktsegment, c_nationkey)
order by lochierarchy desc, c_mktsegment, c_nationkey;
