# 03-bank-conflicts.gp: the demo's probe and row sums (gnuplot -e "csv='slides/data/03-bank-conflicts.csv'").
if (!exists("csv")) csv = "slides/data/03-bank-conflicts.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
set terminal svg size 1200,500 dynamic noenhanced font "Helvetica,15" background "white"
set datafile separator ","
set multiplot layout 1,2 title sprintf("Measured on %s", gpu)
set grid ytics
unset key
set style fill solid 0.85 border -1
set boxwidth 0.6
set xtics rotate by -25 font ",13"
set title "the probe: a warp's shared reads, time against the row pattern"
set ylabel "slowdown (x)"
set logscale y
set yrange [0.5:64]
plot "< grep '^probe' " . csv using 0:6:(0.6):($3 > 1 ? 0xd62728 : 0x2ca02c):xtic(2) with boxes lc rgb variable, \
     "< grep '^probe' " . csv using 0:6:(sprintf("%.1fx (%d)", $6, $3)) with labels offset 0,0.8 font ",13"
unset logscale y
set title "row sums of 2^22 rows of 32: time"
set ylabel "ms"
set autoscale y
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot "< grep '^row sums' " . csv using 0:4:(0.6):(int($0) % 2 ? 0x2ca02c : 0xd62728):xtic(2) with boxes lc rgb variable, \
     "< grep '^row sums' " . csv using 0:4:(sprintf("%.3f ms", $4)) with labels offset 0,0.8 font ",13"
unset multiplot
