async () => {
  await document.fonts.ready;
  const out = [];
  const inter = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  document.querySelectorAll("figure svg").forEach((svg, fi) => {
    const texts = [...svg.querySelectorAll("text")].map(t => ({t: t.textContent, b: t.getBBox()}));
    const cards = [...svg.querySelectorAll("g.card > rect")].map(r => r.getBBox());
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++)
        if (inter(texts[i].b, texts[j].b)) out.push([fi, "text-text", texts[i].t, texts[j].t]);
    }
    texts.forEach(t => {
      const inCard = t.b; 
      cards.forEach(c => {
        const inside = t.b.x >= c.x && t.b.y >= c.y && t.b.x + t.b.width <= c.x + c.width && t.b.y + t.b.height <= c.y + c.height;
        if (!inside && inter(t.b, c)) out.push([fi, "text-card", t.t, [c.x, c.y]]);
      });
    });
  });
  return out;
}
