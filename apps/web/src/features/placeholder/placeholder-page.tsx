export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className="panel">
      <h1>{title}</h1>
      <p>This tool is on its way.</p>
    </section>
  );
}
