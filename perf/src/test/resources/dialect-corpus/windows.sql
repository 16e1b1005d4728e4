-- Window functions over aggregates: the window reads a field Calcite names by its position.
select l_returnflag, l_linestatus, sum(l_quantity) as q,
       sum(l_quantity) * 100.0000 / sum(sum(l_quantity)) over (partition by l_returnflag) as ratio
from lineitem group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus;
select n_regionkey, count(*) as n, rank() over (order by count(*) desc, n_regionkey) as r
from nation group by n_regionkey order by n_regionkey;
