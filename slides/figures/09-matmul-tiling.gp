# 09-matmul-tiling.gp: the demo's table as two plots (gnuplot -e "csv='slides/data/09-matmul-tiling.csv'").
# Left: the variants (the CPU reference, the given swapped naive kernel, naive, tiled, cuBLAS)
# in GFLOP/s, each labelled with its share of cuBLAS. Right: the study, the naive kernel with
# blocks of every shape, then on a 2D grid, a 1D grid and one block launched many times.
# Log scales: the rows span four orders of magnitude.
if (!exists("csv")) csv = "slides/data/09-matmul-tiling.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
sizes = system("sed -n 's/^# lab: 09-matmul-tiling, \\(.*\\) (m x n x k.*/\\1/p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,500 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set datafile missing "-"
set style fill solid 0.85 border -1
set grid ytics
set ytics ("1" 1, "100" 100, "10^4" 10000, "10^6" 1000000)
set logscale y
set format y "%g"
unset key
set multiplot title sprintf("Matrix multiplication on %s: GFLOP/s (higher is better)", gpu)

# ---- left: the variants, the first five rows ----
set origin 0, 0
set size 0.42, 0.94
set title "the variants"
set ylabel "GFLOP/s (2 m n k / time)"
set xrange [-0.6:4.6]
set yrange [1:1e10]
set boxwidth 0.6
set xtics rotate by -25 font ",17" noenhanced
set bmargin 6
# grey: CPU; red: swapped; orange: naive; green: tiled; blue: cuBLAS
vcolor(i) = i == 0 ? 0x999999 : i == 1 ? 0xd62728 : i == 2 ? 0xff7f0e : i == 3 ? 0x2ca02c : 0x1f77b4
# the label: GFLOP/s (one decimal below 10) and the share of cuBLAS, none for the CPU (under 0.1%)
gflops(v) = v < 10 ? sprintf("%.1f", v) : sprintf("%.0f", v)
vlabel(name, v, pct) = name eq "cpu_reference" ? gflops(v) : sprintf("%s (%.0f%%)", gflops(v), pct)
plot csv every ::0::4 using 0:6:(0.6):(vcolor($0)):xtic(strcol(2)) with boxes lc rgb variable, \
     csv every ::0::4 using 0:($6 * 1.3):(vlabel(strcol(2), $6, $7)) with labels rotate by 90 left font ",17"

# ---- right: the study, rows 5 to 14 ----
set origin 0.42, 0
set size 0.58, 0.94
set title "the study: block shapes (rows x cols of threads), then grids (16 x 16 blocks)"
unset ylabel
set xrange [-0.6:9.6]
# shapes by their block; the grids by what they are
slabel(name, block, launches) = name eq "naive_shape" ? block : \
    name eq "naive_grid1d" ? "1D grid" : name eq "naive_block_launches" ? sprintf("%s launches", launches) : "2D grid"
scolor(name) = name eq "naive_shape" ? 0xff7f0e : name eq "naive_block_launches" ? 0xd62728 : 0x2ca02c
plot csv every ::5::14 using 0:6:(0.6):(scolor(strcol(2))):xtic(slabel(strcol(2), strcol(3), strcol(4))) \
         with boxes lc rgb variable, \
     csv every ::5::14 using 0:($6 * 1.3):(gflops($6)) with labels rotate by 90 left font ",17"
unset multiplot
