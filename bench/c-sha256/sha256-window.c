/* SHA-256 compression for wasm32, rounds fully unrolled with a rolling 16-word schedule window
 * (OpenSSL formulation: Ch = ((f^g)&e)^g, Maj = ((a|b)&c)|(a&b)). Generated once from sha256-loop.c
 * by a short script (one line per round) and committed as is: an experiment, see bench/README.md. */
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
  while(n--){
    uint32_t a=state[0],b=state[1],c=state[2],d=state[3],e=state[4],f=state[5],g=state[6],h=state[7];
    uint32_t w0=__builtin_bswap32(((const uint32_t*)p)[0]); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[0] + w0; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    uint32_t w1=__builtin_bswap32(((const uint32_t*)p)[1]); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[1] + w1; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    uint32_t w2=__builtin_bswap32(((const uint32_t*)p)[2]); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[2] + w2; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    uint32_t w3=__builtin_bswap32(((const uint32_t*)p)[3]); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[3] + w3; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    uint32_t w4=__builtin_bswap32(((const uint32_t*)p)[4]); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[4] + w4; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    uint32_t w5=__builtin_bswap32(((const uint32_t*)p)[5]); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[5] + w5; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    uint32_t w6=__builtin_bswap32(((const uint32_t*)p)[6]); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[6] + w6; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    uint32_t w7=__builtin_bswap32(((const uint32_t*)p)[7]); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[7] + w7; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    uint32_t w8=__builtin_bswap32(((const uint32_t*)p)[8]); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[8] + w8; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    uint32_t w9=__builtin_bswap32(((const uint32_t*)p)[9]); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[9] + w9; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    uint32_t w10=__builtin_bswap32(((const uint32_t*)p)[10]); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[10] + w10; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    uint32_t w11=__builtin_bswap32(((const uint32_t*)p)[11]); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[11] + w11; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    uint32_t w12=__builtin_bswap32(((const uint32_t*)p)[12]); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[12] + w12; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    uint32_t w13=__builtin_bswap32(((const uint32_t*)p)[13]); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[13] + w13; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    uint32_t w14=__builtin_bswap32(((const uint32_t*)p)[14]); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[14] + w14; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    uint32_t w15=__builtin_bswap32(((const uint32_t*)p)[15]); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[15] + w15; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w0 += s1(w14) + w9 + s0(w1); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[16] + w0; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w1 += s1(w15) + w10 + s0(w2); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[17] + w1; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w2 += s1(w0) + w11 + s0(w3); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[18] + w2; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w3 += s1(w1) + w12 + s0(w4); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[19] + w3; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w4 += s1(w2) + w13 + s0(w5); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[20] + w4; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w5 += s1(w3) + w14 + s0(w6); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[21] + w5; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w6 += s1(w4) + w15 + s0(w7); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[22] + w6; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w7 += s1(w5) + w0 + s0(w8); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[23] + w7; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w8 += s1(w6) + w1 + s0(w9); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[24] + w8; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w9 += s1(w7) + w2 + s0(w10); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[25] + w9; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w10 += s1(w8) + w3 + s0(w11); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[26] + w10; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w11 += s1(w9) + w4 + s0(w12); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[27] + w11; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w12 += s1(w10) + w5 + s0(w13); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[28] + w12; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w13 += s1(w11) + w6 + s0(w14); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[29] + w13; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w14 += s1(w12) + w7 + s0(w15); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[30] + w14; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w15 += s1(w13) + w8 + s0(w0); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[31] + w15; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w0 += s1(w14) + w9 + s0(w1); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[32] + w0; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w1 += s1(w15) + w10 + s0(w2); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[33] + w1; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w2 += s1(w0) + w11 + s0(w3); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[34] + w2; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w3 += s1(w1) + w12 + s0(w4); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[35] + w3; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w4 += s1(w2) + w13 + s0(w5); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[36] + w4; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w5 += s1(w3) + w14 + s0(w6); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[37] + w5; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w6 += s1(w4) + w15 + s0(w7); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[38] + w6; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w7 += s1(w5) + w0 + s0(w8); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[39] + w7; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w8 += s1(w6) + w1 + s0(w9); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[40] + w8; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w9 += s1(w7) + w2 + s0(w10); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[41] + w9; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w10 += s1(w8) + w3 + s0(w11); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[42] + w10; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w11 += s1(w9) + w4 + s0(w12); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[43] + w11; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w12 += s1(w10) + w5 + s0(w13); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[44] + w12; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w13 += s1(w11) + w6 + s0(w14); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[45] + w13; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w14 += s1(w12) + w7 + s0(w15); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[46] + w14; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w15 += s1(w13) + w8 + s0(w0); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[47] + w15; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w0 += s1(w14) + w9 + s0(w1); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[48] + w0; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w1 += s1(w15) + w10 + s0(w2); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[49] + w1; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w2 += s1(w0) + w11 + s0(w3); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[50] + w2; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w3 += s1(w1) + w12 + s0(w4); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[51] + w3; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w4 += s1(w2) + w13 + s0(w5); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[52] + w4; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w5 += s1(w3) + w14 + s0(w6); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[53] + w5; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w6 += s1(w4) + w15 + s0(w7); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[54] + w6; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w7 += s1(w5) + w0 + s0(w8); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[55] + w7; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    w8 += s1(w6) + w1 + s0(w9); { uint32_t t1 = h + S1(e) + (((f^g)&e)^g) + K[56] + w8; d += t1; h = t1 + S0(a) + (((a|b)&c)|(a&b)); }
    w9 += s1(w7) + w2 + s0(w10); { uint32_t t1 = g + S1(d) + (((e^f)&d)^f) + K[57] + w9; c += t1; g = t1 + S0(h) + (((h|a)&b)|(h&a)); }
    w10 += s1(w8) + w3 + s0(w11); { uint32_t t1 = f + S1(c) + (((d^e)&c)^e) + K[58] + w10; b += t1; f = t1 + S0(g) + (((g|h)&a)|(g&h)); }
    w11 += s1(w9) + w4 + s0(w12); { uint32_t t1 = e + S1(b) + (((c^d)&b)^d) + K[59] + w11; a += t1; e = t1 + S0(f) + (((f|g)&h)|(f&g)); }
    w12 += s1(w10) + w5 + s0(w13); { uint32_t t1 = d + S1(a) + (((b^c)&a)^c) + K[60] + w12; h += t1; d = t1 + S0(e) + (((e|f)&g)|(e&f)); }
    w13 += s1(w11) + w6 + s0(w14); { uint32_t t1 = c + S1(h) + (((a^b)&h)^b) + K[61] + w13; g += t1; c = t1 + S0(d) + (((d|e)&f)|(d&e)); }
    w14 += s1(w12) + w7 + s0(w15); { uint32_t t1 = b + S1(g) + (((h^a)&g)^a) + K[62] + w14; f += t1; b = t1 + S0(c) + (((c|d)&e)|(c&d)); }
    w15 += s1(w13) + w8 + s0(w0); { uint32_t t1 = a + S1(f) + (((g^h)&f)^h) + K[63] + w15; e += t1; a = t1 + S0(b) + (((b|c)&d)|(b&c)); }
    state[0]+=a;state[1]+=b;state[2]+=c;state[3]+=d;state[4]+=e;state[5]+=f;state[6]+=g;state[7]+=h; p+=64;
  }
}
