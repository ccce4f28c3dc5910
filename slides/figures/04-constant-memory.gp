# 04-constant-memory.gp: the demo's table in three panels (gnuplot -e "csv='slides/data/04-constant-memory.csv'").
# The title names the GPU the CSV was measured on. Red: the data in constant memory; green: in global memory.
if (!exists("csv")) csv = "slides/data/04-constant-memory.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
n = int(system("sed -n 's/^# lab: .*n = \\([0-9]*\\) outputs.*/\\1/p' " . csv))
p = int(log(n) / log(2) + 0.5)
outputs = 2**p == n ? sprintf("2^%d", p) : sprintf("%d", n)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,430 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set multiplot layout 1,3 title sprintf("%s outputs, one thread each, on %s", outputs, gpu)
set grid ytics
set bmargin 5
set style fill solid 0.85 border -1
set boxwidth 0.6
unset key
# red: the slower memory for each pattern, green: the faster one
color(name) = strstrt(name, "constant") ? 0xd62728 : 0x2ca02c

# task 1: a polynomial of degree 511 by Horner's rule, its 512 coefficients at
# addresses known at compile time (here green: constant memory is the faster)
set title "polynomial, 512 coefficients"
set ylabel "time (ms)"
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
# (a CSV whose poly_ rows have no times yet gets an empty panel that says so)
if (int(system("grep -c '^poly_[a-z]*,[^,]*,[0-9]' " . csv)) < 2) {
    set xrange [-0.5:1.5]
    set yrange [0:1]
    set xtics ("global\ncoefficients" 0, "constant\ncoefficients" 1)
    set label 1 "not measured yet" at graph 0.5, 0.5 center
    plot 1/0 notitle
    unset label 1
    set xtics auto
    set autoscale x
} else {
    plot "< grep '^poly_' " . csv \
             using 0:3:(0.6):(strstrt(strcol(1), "constant") ? 0x2ca02c : 0xd62728):xtic(strcol(1)[6:] . "\ncoefficients") with boxes lc rgb variable, \
         "" using 0:3:(sprintf("%.3f ms", $3)) with labels offset 0,0.8 font ",17"
}

# task 3: the run-time loop, constant against global taps; along the bottom,
# how many times faster the global taps are
set title "taps known at run time"
set xlabel "taps (x: global taps faster)"
set logscale xy
set xrange [45:1450]
set yrange [0.01:2000]
set offsets 0, 0, 0, 0
set xtics (64, 128, 256, 1024)
set key top left Left reverse
plot "< grep '^convolve_constant_runtime,' " . csv using 2:3 with linespoints lw 2 pt 7 lc rgb "#d62728" title "constant taps", \
     "< grep '^convolve_long,' " . csv using 2:3 with linespoints lw 2 pt 5 lc rgb "#2ca02c" title "global taps", \
     "< grep '^convolve_long,' " . csv using 2:(0.015):(sprintf("%sx", strcol(5))) with labels rotate by 90 left font ",17" textcolor rgb "#2ca02c" notitle
unset logscale
unset xlabel
unset key

# task 2: the lookup; one index per warp (uniform) or one per lane (random)
set title "lookup, 16 reads per output"
set ylabel "time (ms, log scale)"
set logscale y
set autoscale x
set xtics auto
set yrange [0.02:200000]
set rmargin 5
set xtics rotate by -30
# the colour says constant (red) or global (green): the tic says only the pattern, so that the
# last one stays inside the slide
label(name) = word(name, 2)
plot "< grep '^lookup_' " . csv using 0:3:(0.6):(color(strcol(1))):xtic(label(strcol(1))) with boxes lc rgb variable, \
     "" using 0:3:(sprintf("%.3f ms", $3)) with labels rotate by 90 left offset 0,0.5 font ",17"
unset multiplot
