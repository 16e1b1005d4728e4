-- Result columns without an alias are named as DuckDB prints their expression.
select sum (l_quantity), count(*), count(distinct l_returnflag) from lineitem;
select round(sum(l_extendedprice) / sum(l_quantity), 2), cast(sum(l_quantity) as decimal(15,4)) * 100 from lineitem;
select substring(p_name, 1, 10), substr(p_name, 1, 3), p_size + 1, -p_size from part where p_partkey < 5 order by 1;
select case when o_orderstatus = 'F' then 1 else 0 end, coalesce(o_comment, 'none') from orders where o_orderkey < 10;
