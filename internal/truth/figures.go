package truth

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// figuresHeader names the columns of a figures file: numbers and names
// only, never source text or SASS.
var figuresHeader = []string{"program", "run", "invocation", "kernel", "block", "grid", "file", "line", "op", "instructions", "sectors", "ideal", "sass"}

// WriteFigures writes rows as gzip-compressed CSV (deterministic bytes:
// no name or time in the gzip header).
func WriteFigures(w io.Writer, rows []Row) error {
	zw := gzip.NewWriter(w)
	cw := csv.NewWriter(zw)
	if err := cw.Write(figuresHeader); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Program, r.Run, strconv.Itoa(r.Invocation), r.Kernel, r.Block.String(), r.Grid.String(), r.File,
			strconv.Itoa(r.Line), r.Op, strconv.FormatInt(r.Instructions, 10), strconv.FormatInt(r.Sectors, 10),
			strconv.FormatInt(r.Ideal, 10), strconv.Itoa(r.SASS)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return zw.Close()
}

// ReadFigures reads what WriteFigures wrote.
func ReadFigures(r io.Reader) ([]Row, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(zr)
	cr.FieldsPerRecord = len(figuresHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("figures header: %v", err)
	}
	for i, h := range figuresHeader {
		if head[i] != h {
			return nil, fmt.Errorf("figures column %d is %q, want %q", i+1, head[i], h)
		}
	}
	var rows []Row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		r, err := parseRow(rec)
		if err != nil {
			line, _ := cr.FieldPos(0)
			return nil, fmt.Errorf("figures line %d: %v", line, err)
		}
		rows = append(rows, r)
	}
}

func parseRow(rec []string) (Row, error) {
	r := Row{Program: rec[0], Run: rec[1], Kernel: rec[3], File: rec[6], Op: rec[8]}
	var err error
	if r.Invocation, err = strconv.Atoi(rec[2]); err != nil {
		return r, err
	}
	if r.Block, err = ParseDim3(rec[4]); err != nil {
		return r, err
	}
	if r.Grid, err = ParseDim3(rec[5]); err != nil {
		return r, err
	}
	if r.Op != "load" && r.Op != "store" {
		return r, fmt.Errorf("operation %q", r.Op)
	}
	ints := []*int64{&r.Instructions, &r.Sectors, &r.Ideal}
	for i, s := range rec[9:12] {
		if *ints[i], err = strconv.ParseInt(s, 10, 64); err != nil {
			return r, err
		}
	}
	if r.Instructions <= 0 {
		return r, fmt.Errorf("%d instructions", r.Instructions)
	}
	if r.Line, err = strconv.Atoi(rec[7]); err != nil {
		return r, err
	}
	r.SASS, err = strconv.Atoi(rec[12])
	return r, err
}
