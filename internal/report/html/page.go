package html

import "html/template"

// pageTemplate is the page. Everything from the analyzed code reaches it
// as a string that html/template escapes for where it lands (text,
// attribute, URL); the one value it does not escape is the script, a
// constant of this package, whose hash the Content-Security-Policy
// names.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cudalint report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 2em; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.5em; margin: .8em 0 .2em; }
h2 { font-size: 1.15em; margin: 1.2em 0 .4em; }
h3 { font-size: 1em; display: inline; }
code, pre, .code, .warp { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding-bottom: .4em; z-index: 1; }
.summary { margin: .2em 0; }
fieldset { display: inline-block; border: 1px solid #ccc; margin: .2em .6em .2em 0; padding: .1em .6em; }
legend { font-size: .85em; color: #555; }
label { margin-right: .8em; white-space: nowrap; }
#shown { color: #555; margin: .2em 0 0; }
table { border-collapse: collapse; }
table.rank td, table.rank th { padding: .15em .7em .15em 0; text-align: left; vertical-align: top; }
table.rank th { border-bottom: 1px solid #ccc; font-weight: 600; }
section.kernel { margin: 1em 0; border: 1px solid #ddd; border-radius: 4px; padding: .3em .8em .6em; }
summary { cursor: pointer; padding: .3em 0; }
.where { color: #555; margin-left: .6em; }
ul.facts { margin: .2em 0 .6em; padding-left: 1.4em; color: #333; }
table.src { width: 100%; margin-top: .4em; }
table.src td { padding: 0 .5em; vertical-align: top; }
td.n { color: #888; text-align: right; user-select: none; width: 3.5em; }
td.m { color: #444; text-align: right; white-space: nowrap; width: 6em; font-size: .85em; }
td.code { white-space: pre; tab-size: 4; }
tr.h0 td.code { background: #dcf2e0; }
tr.h1 td.code { background: #fbf3c4; }
tr.h2 td.code { background: #fddfae; }
tr.h3 td.code { background: #fbbf9b; }
tr.h4 td.code { background: #f79292; }
tr.unk td.code { background: repeating-linear-gradient(45deg, #eee, #eee 6px, #f8f8f8 6px, #f8f8f8 12px); }
tr.flag td.n { color: #000; font-weight: 700; border-left: 4px solid #b00; }
tr.finding td { padding: .2em .5em .5em; }
.card { border-left: 4px solid #999; background: #f7f7f9; padding: .3em .6em; white-space: normal; font-family: system-ui, sans-serif; }
.sev-error .card, .card.sev-error { border-color: #c00; }
.sev-warning .card, .card.sev-warning { border-color: #d80; }
.sev-info .card, .card.sev-info { border-color: #08a; }
.sev { font-weight: 700; text-transform: uppercase; font-size: .8em; }
.sev-error .sev { color: #c00; } .sev-warning .sev { color: #a60; } .sev-info .sev { color: #068; }
.msg { margin: .2em 0; }
.warp { white-space: pre; margin: .2em 0; font-size: 1.05em; }
.fix { margin: .2em 0; color: #060; }
.note { margin: .1em 0; color: #555; font-size: .9em; }
.legend span { display: inline-block; padding: 0 .5em; margin-right: .3em; font-size: .85em; }
</style>
</head>
<body>
<header>
<h1>cudalint report</h1>
<p class="summary">{{.Summary}}</p>
<form id="filters">
{{- if .Severities}}
<fieldset><legend>severity</legend>
{{- range .Severities}}<label><input type="checkbox" data-filter="severity" value="{{.Name}}" checked> {{.Name}} ({{.Count}})</label>{{end -}}
</fieldset>{{end}}
{{- if .Rules}}
<fieldset><legend>rule</legend>
{{- range .Rules}}<label><input type="checkbox" data-filter="rule" value="{{.Name}}" checked> {{.Name}} ({{.Count}})</label>{{end -}}
</fieldset>{{end}}
</form>
<p id="shown">{{.Total}} findings</p>
</header>
<main>
<h2>Kernels by estimated waste</h2>
{{- if .Ranked}}
<table class="rank">
<tr><th>#</th><th>kernel</th><th>where</th><th>findings</th><th>fixing its top finding</th><th>costliest access line</th></tr>
{{- range .Ranked}}
<tr id="rank-{{.ID}}"><td>{{.Rank}}</td><td><a href="#{{.ID}}">{{.Name}}</a></td><td>{{.File}}:{{.Line}}</td><td>{{.Findings}}</td><td>{{.Best}}</td><td>{{.Worst}}</td></tr>
{{- end}}
</table>
{{- else}}
<p>No kernel has a finding.</p>
{{- end}}
<p class="legend">Each access line is shaded by its costliest access's sectors per request (wavefronts, for shared memory) against the ideal:
<span style="background:#dcf2e0">ideal</span><span style="background:#fbf3c4">&lt;25% wasted</span><span style="background:#fddfae">&lt;50%</span><span style="background:#fbbf9b">&lt;75%</span><span style="background:#f79292">75% or more</span><span style="background:#eee">unknown</span>
Hover a line for each of its accesses.</p>
{{- range .Ranked}}{{template "kernel" .}}{{end}}
{{- if .Other}}
<h2>Other findings</h2>
{{- range .Other}}
<div class="other finding" id="{{.ID}}" data-severity="{{.Severity}}" data-rule="{{.Rule}}">{{template "card" .}}{{with .Source}}{{template "oneline" .}}{{end}}</div>
{{- end}}
{{- end}}
{{- if .Quiet}}
<h2>Other kernels</h2>
{{- range .Quiet}}{{template "kernel" .}}{{end}}
{{- end}}
</main>
<footer><p>{{.Version}}</p></footer>
<script>{{.Script}}</script>
</body>
</html>
{{define "kernel"}}
<section class="kernel{{if .Findings}} flagged{{end}}" id="{{.ID}}">
<details{{if .Findings}} open{{end}}>
<summary>{{if .Rank}}#{{.Rank}} {{end}}<h3>{{.Name}}</h3><span class="where">{{.File}}:{{.Line}}{{if .Findings}} · {{.Findings}} finding{{if ne .Findings 1}}s{{end}}{{end}}</span></summary>
{{- if .Configs}}
<div>Launch configurations (block shape and where it comes from):</div>
<ul class="facts">{{range .Configs}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
{{- if .Assumptions}}
<div>Assumptions:</div>
<ul class="facts">{{range .Assumptions}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
{{- if .Unknowns}}
<div>Not known to the model:</div>
<ul class="facts">{{range .Unknowns}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
{{- if .Notes}}
<div>Notes:</div>
<ul class="facts">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
{{- end}}
<table class="src">
{{- range .Lines}}
{{template "line" .}}
{{- range .Findings}}
<tr class="finding sev-{{.Severity}}" id="{{.ID}}" data-severity="{{.Severity}}" data-rule="{{.Rule}}"><td></td><td></td><td>{{template "card" .}}</td></tr>
{{- end}}
{{- end}}
</table>
{{- range .Outside}}
<div class="outside finding" id="{{.ID}}" data-severity="{{.Severity}}" data-rule="{{.Rule}}">{{template "card" .}}{{with .Source}}{{template "oneline" .}}{{end}}</div>
{{- end}}
</details>
</section>
{{end}}
{{define "line"}}<tr id="{{.ID}}" class="line {{.Heat}}{{if .Findings}} flag{{end}}" data-file="{{.File}}" data-line="{{.N}}"{{if .Tip}} title="{{.Tip}}"{{end}}><td class="n">{{.N}}</td><td class="m">{{.Metric}}</td><td class="code">{{.Text}}</td></tr>{{end}}
{{define "oneline"}}<table class="src"><tr id="{{.ID}}" class="line flag" data-file="{{.File}}" data-line="{{.N}}"><td class="n">{{.N}}</td><td class="m"></td><td class="code">{{.Text}}</td></tr></table>{{end}}
{{define "card"}}<div class="card sev-{{.Severity}}"><span class="sev">{{.Severity}}</span> <a href="{{.URL}}">{{.Rule}}</a> <code>{{.File}}:{{.Line}}:{{.Col}}</code>
<p class="msg">{{.Message}}</p>
{{- if .Picture}}<div class="warp">{{.Picture}}</div>{{end}}
{{- if .Fix}}<p class="fix">fix: {{.Fix}} (cudalint --fix applies it)</p>{{end}}
{{- range .Notes}}<p class="note">note: {{.}}</p>{{end}}</div>{{end}}
`))
