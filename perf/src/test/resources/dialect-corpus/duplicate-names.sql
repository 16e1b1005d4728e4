-- Result columns of one name: SQL keeps the name each column has, twice, as DuckDB does (TPC-DS Q39
-- and Q64 select inv1.w_warehouse_sk and inv2.w_warehouse_sk; Q14b SELECT * of two tables alike).
select n1.n_name, n2.n_name, n1.n_nationkey
from nation n1 join nation n2 on n1.n_regionkey = n2.n_nationkey
order by n1.n_nationkey;
select *
from (select r_regionkey as k, r_name as name from region) a
join (select n_regionkey as k, n_name as name from nation) b on a.k = b.k
order by b.name;
-- An alias written in the text stays as written, even one that looks made unique.
select n_name as n_name0, n_regionkey as n_name1, n_name from nation order by n_name0;
