package analyzer
import ("testing";"os";"fmt";"github.com/cudalint/cudalint/parser")
func TestTry(t *testing.T){
 src,_:=os.ReadFile("../testdata/truth/probes.cu")
 f:=parser.Parse("probes.cu",src,parser.Config{})
 r:=Analyze([]*parser.File{f},Options{})
 for _,k:=range r.Kernels{ for _,n:=range k.Notes{fmt.Println("NOTE",n)} }
 for _,p:=range r.Predictions{
   ls:="-"; if p.LaneStride!=nil{ls=fmt.Sprint(*p.LaneStride)}
   fmt.Printf("%-20s %4d %-5s %-34s known=%v s=%.3f i=%.3f ls=%s %s req=%d exact=%v %v %s\n", p.Access.Kernel.Name, p.Access.Pos.Line, p.Access.Op, p.Access.Expr, p.Known, p.Sectors, p.Ideal, ls, p.Config.Block, p.Requests, p.Exact, p.Assumptions, p.Reason)
 }
}
