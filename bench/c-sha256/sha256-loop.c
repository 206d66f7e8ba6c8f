/* SHA-256 compression for wasm32, the schedule in a 64-word array, rounds unrolled by clang: an experiment, see bench/README.md. */
#include <stdint.h>
#include <stddef.h>
#define ROR(x,n) (((x)>>(n))|((x)<<(32-(n))))
#define S0(x) (ROR(x,2)^ROR(x,13)^ROR(x,22))
#define S1(x) (ROR(x,6)^ROR(x,11)^ROR(x,25))
#define s0(x) (ROR(x,7)^ROR(x,18)^((x)>>3))
#define s1(x) (ROR(x,17)^ROR(x,19)^((x)>>10))
static const uint32_t K[64]={0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2};
uint32_t state[8];
uint8_t input[16*1024*1024];
uint32_t *state_ptr(void){return state;}
uint8_t *input_ptr(void){return input;}
void init(void){state[0]=0x6a09e667;state[1]=0xbb67ae85;state[2]=0x3c6ef372;state[3]=0xa54ff53a;state[4]=0x510e527f;state[5]=0x9b05688c;state[6]=0x1f83d9ab;state[7]=0x5be0cd19;}
#define R(a,b,c,d,e,f,g,h,i) { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[i] + W[i]; \
  d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
void blocks(size_t n){
  const uint8_t *p=input;
  uint32_t a0=state[0],b0=state[1],c0=state[2],d0=state[3],e0=state[4],f0=state[5],g0=state[6],h0=state[7];
  while(n--){
    uint32_t W[64];
    for(int i=0;i<16;i++) W[i]=((uint32_t)p[4*i]<<24)|((uint32_t)p[4*i+1]<<16)|((uint32_t)p[4*i+2]<<8)|p[4*i+3];
    #pragma clang loop unroll(full)
    for(int i=16;i<64;i++) W[i]=s1(W[i-2])+W[i-7]+s0(W[i-15])+W[i-16];
    uint32_t a=a0,b=b0,c=c0,d=d0,e=e0,f=f0,g=g0,h=h0;
    #pragma clang loop unroll(full)
    for(int i=0;i<64;i+=8){
      R(a,b,c,d,e,f,g,h,i) R(h,a,b,c,d,e,f,g,i+1) R(g,h,a,b,c,d,e,f,i+2) R(f,g,h,a,b,c,d,e,i+3)
      R(e,f,g,h,a,b,c,d,i+4) R(d,e,f,g,h,a,b,c,i+5) R(c,d,e,f,g,h,a,b,i+6) R(b,c,d,e,f,g,h,a,i+7)
    }
    a0+=a;b0+=b;c0+=c;d0+=d;e0+=e;f0+=f;g0+=g;h0+=h; p+=64;
  }
  state[0]=a0;state[1]=b0;state[2]=c0;state[3]=d0;state[4]=e0;state[5]=f0;state[6]=g0;state[7]=h0;
}
